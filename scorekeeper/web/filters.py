"""What templates use beyond Jinja's own and the formatting filters: stars."""


def stars(count: int) -> str:
    return "★" * count
