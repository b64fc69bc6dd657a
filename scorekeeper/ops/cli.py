"""Command-line tools: ``flask --app scorekeeper ...``."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, ClassVar

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

from scorekeeper import database
from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.errors import ServiceError
from scorekeeper.ops import backup, restore
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.table import submissions


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema and the default league."""
    database.migrate_and_seed(current_app, seed=ensure_default_league)
    click.echo("The database is up to date.")


@click.command("prune-tokens")
@with_appcontext
@click.option("--days", type=click.IntRange(min=1), default=submissions.KEEP_FOR.days)
def prune_tokens_command(days: int) -> None:
    """Delete the one-time submission tokens older than DAYS (30), in batches.

    Every start does it too; run it from cron, beside the nightly backup, on a server
    that runs for months."""
    pruned = submissions.prune(keep_for=timedelta(days=days))
    click.echo(f"Pruned {pruned} one-time submission token{'s' * (pruned != 1)}.")


@click.group("user", cls=AppGroup)
def user_group() -> None:
    """Manage user accounts."""


@user_group.command("create")
@click.argument("username")
@click.option("--admin", is_flag=True, help="A site administrator (admin of every league).")
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="Asked for when not given.",
)
def create_user_command(username: str, admin: bool, password: str) -> None:
    """Create an account."""
    try:
        user = user_service.create_user(username, password, admin=admin)
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    kind = "site administrator" if admin else "user"
    click.echo(f"Created {kind} {user.username}.")


@user_group.command("disable")
@click.argument("username")
def disable_user_command(username: str) -> None:
    """Disable an account: signed out everywhere, its API tokens revoked, its history kept."""
    _set_disabled(username, disabled=True)


@user_group.command("enable")
@click.argument("username")
def enable_user_command(username: str) -> None:
    """Put a disabled account back in use."""
    _set_disabled(username, disabled=False)


def _set_disabled(username: str, *, disabled: bool) -> None:
    user = user_service.user_by_name(username)
    if user is None:
        raise click.ClickException(f"There is no user {username}.")
    user_service.set_disabled(user.id, disabled, by=0)  # the shell: nobody's own account
    state = "disabled: signed out everywhere, API tokens revoked" if disabled else "in use"
    click.echo(f"{user.username} is {state}.")


@click.command("setup-code")
@with_appcontext
def setup_code_command() -> None:
    """Print the code the setup page asks for to create the first administrator."""
    if user_service.has_users():
        raise click.ClickException("This site already has an administrator: sign in instead.")
    click.echo(f"Setup code: {user_service.setup_code()}")


@click.group("token", cls=AppGroup)
def token_group() -> None:
    """Manage API tokens."""


@token_group.command("create")
@click.argument("username")
@click.option("--name", default="command line", help="What the token is for.")
def create_token_command(username: str, name: str) -> None:
    """Print a new API token for USERNAME (the last word of the output)."""
    user = user_service.user_by_name(username)
    if user is None:
        raise click.ClickException(f"There is no user {username}.")
    token = token_service.create_token(user.id, name)
    click.echo(f"API token for {user.username}: {token}")


@click.command("backup")
@with_appcontext
@click.argument("file", type=click.Path(dir_okay=False))
def backup_command(file: str) -> None:
    """Write a consistent copy of the database to FILE while the app runs.

    FILE ending in .json gets a portable dump (any database); otherwise an
    SQLite database is copied with SQLite's online backup.
    """
    try:
        with progress_bar("Backing up") as progress:
            summary = backup.backup(file, progress)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Backed up to {file}: {summary}.")


@click.command("restore")
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Don't ask before replacing every row.")
def restore_command(file: str, yes: bool) -> None:
    """Replace the database's contents with a backup made by ``backup``."""
    if not yes:
        click.confirm("This replaces everything in the database. Go on?", abort=True)
    try:
        with progress_bar("Restoring") as progress:
            summary = restore.restore(file, progress)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Restored from {file}: {summary}.")


class ProgressBar:
    """A long job's progress on the terminal, drawn by tqdm: how many, how fast, how long
    is left. Nothing is drawn when the output is not a terminal (cron, a pipe)."""

    UNITS: ClassVar = {"rows": ("rows", 1000), "bytes": ("B", 1024), "pages": ("pages", 1000)}

    def __init__(self, description: str, file: Any = None) -> None:
        self.description = description
        self.file = file if file is not None else sys.stderr
        self.bar: Any = None

    def __call__(self, done: int, total: int, unit: str) -> None:
        if self.bar is None or self.bar.total != total:
            self.close()
            from tqdm import tqdm  # loaded by the commands that draw a bar, not by the app

            name, divisor = self.UNITS.get(unit, (unit, 1000))
            self.bar = tqdm(
                total=total,
                desc=self.description,
                unit=f" {name}" if name != "B" else name,
                unit_scale=unit == "bytes" or total >= 100_000,  # 232k, not 232000
                unit_divisor=divisor,
                file=self.file,
                disable=None,  # not a terminal: no bar
            )
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


@contextmanager
def progress_bar(description: str) -> Iterator[ProgressBar]:
    bar = ProgressBar(description)
    try:
        yield bar
    finally:
        bar.close()


def init_app(app: Flask) -> None:
    for command in (
        init_db_command,
        prune_tokens_command,
        user_group,
        setup_code_command,
        token_group,
        backup_command,
        restore_command,
    ):
        app.cli.add_command(command)
