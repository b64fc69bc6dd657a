"""App wiring shared by every area: error pages, security headers and request limits,
template filters, static assets, the service worker. ``create_app`` registers them."""
