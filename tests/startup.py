"""What a start of the app may load, shared by ``tests/ops/test_startup.py`` and
``python -m bench.startup``."""

#: What serving a page never needs: each is loaded by what first uses it.
LAZY = [
    "scorekeeper.api.openapi",
    "segno",
    "rapidfuzz",
    "networkx",
    "email_validator",
    "tqdm",
]
BUILD = (
    "from scorekeeper import create_app; import sys; create_app({'SQLALCHEMY_DATABASE_URI': "
    "sys.argv[1], 'SECRET_KEY': 'bench'}); "
    f"print(','.join(m for m in {LAZY!r} if m in sys.modules))"
)
