"""``mille-scorekeeper``: serve the app with waitress on http://127.0.0.1:5000."""

import argparse

from sqlalchemy.engine import make_url
from waitress import serve

from . import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Mille Scorekeeper.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    app = create_app()
    database = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).render_as_string(hide_password=True)
    print(f"Mille Scorekeeper on http://{args.host}:{args.port}/", flush=True)
    print(f"Database: {database}", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    main()
