"""One-time submission tokens past their use are pruned (issue 26), in batches, and
nothing else goes with them."""

from datetime import timedelta

import sqlalchemy as sa

from scorekeeper.models import AuditEvent, Deal, SubmissionToken, db, utcnow
from scorekeeper.table import submissions


def tokens_and_counts(app):
    with app.app_context():
        kept = sorted(db.session.scalars(sa.select(SubmissionToken.token)))
        counts = [
            db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Deal, AuditEvent)
        ]
        db.session.remove()
    return kept, counts


def test_tokens_older_than_thirty_days_are_pruned_a_batch_at_a_time(app, table, monkeypatch):
    game = table.start_game()
    for number in range(4):
        table.record(game, 0, (100, 5 * number))
    recent, counts = tokens_and_counts(app)
    assert len(recent) == 4  # each recorded deal kept its form's token
    with app.app_context():
        long_ago = utcnow() - submissions.KEEP_FOR - timedelta(minutes=1)
        db.session.add_all(
            SubmissionToken(token=f"old-{n}", game_id=game, created_at=long_ago) for n in range(7)
        )
        db.session.add(
            SubmissionToken(
                token="just-young-enough", game_id=game, created_at=long_ago + timedelta(minutes=2)
            )
        )
        db.session.commit()
        commits = []

        def committed(_connection):
            commits.append(1)

        sa.event.listen(db.engine, "commit", committed)
        assert submissions.prune(batch=3) == 7
        sa.event.remove(db.engine, "commit", committed)
        db.session.remove()
    assert len(commits) == 3  # 3 + 3 + 1: a transaction per batch, none holding all
    assert tokens_and_counts(app) == (sorted([*recent, "just-young-enough"]), counts)


def test_the_command_prunes_and_says_how_many(app, table):
    game = table.start_game()
    with app.app_context():
        db.session.add(
            SubmissionToken(token="old", game_id=game, created_at=utcnow() - timedelta(days=8))
        )
        db.session.commit()
        db.session.remove()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["prune-tokens"])
    assert result.output == "Pruned 0 one-time submission tokens.\n"
    result = runner.invoke(args=["prune-tokens", "--days", "7"])
    assert result.output == "Pruned 1 one-time submission token.\n"
