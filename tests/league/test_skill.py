"""How sure a rating is: OpenSkill's skill beside Elo, widened by time away."""

from datetime import datetime, timedelta

from scorekeeper.records import skill
from scorekeeper.records.skill import FIRST, Skill, after_game, away, chances, provisional

NOW = datetime(2025, 6, 1, 20, 0)


def test_a_win_raises_the_winner_and_narrows_both():
    winner, loser = after_game(FIRST, FIRST)
    assert winner.mu > FIRST.mu > loser.mu
    assert winner.sigma < FIRST.sigma
    assert loser.sigma < FIRST.sigma
    # The same game gives the same whole numbers, every time.
    assert after_game(FIRST, FIRST) == (winner, loser)


def test_a_newcomers_chance_stays_nearer_even_than_a_veterans():
    veteran, rookie, beaten = Skill(30000, 2000), Skill(30000, 8000), Skill(20000, 2000)
    assert chances(veteran, beaten)[0] > chances(rookie, beaten)[0] > 50
    assert chances(FIRST, FIRST) == (50, 50)
    for first, second in [(veteran, beaten), (beaten, rookie)]:
        one, other = chances(first, second)
        assert one + other == 100
        assert 1 <= one <= 99


def test_time_away_widens_the_uncertainty_up_to_a_newcomers():
    settled = Skill(31000, 2500)
    assert away(settled, 0) == settled
    month, year = away(settled, 30), away(settled, 365)
    assert settled.sigma < month.sigma < year.sigma <= FIRST.sigma
    assert month.mu == year.mu == settled.mu
    assert away(settled, 10_000).sigma == FIRST.sigma
    assert year.conservative < settled.conservative


def test_provisional_with_few_games_or_long_away():
    assert provisional(3, NOW, NOW) == skill.Provisional(games=3)
    assert provisional(skill.PROVISIONAL_GAMES, NOW - timedelta(days=10), NOW) is None
    long_ago = NOW - timedelta(days=skill.AWAY_DAYS + 5)
    assert provisional(50, long_ago, NOW) == skill.Provisional(days_away=skill.AWAY_DAYS + 5)


def test_on_the_elo_scale_a_newcomer_is_1500_and_400_points_are_ten_to_one():
    assert skill.points(FIRST.mu) == 1500
    # Two players known for certain, 400 points apart: Elo's 10 to 1 (91%).
    step = round(400 / skill.POINTS_PER_UNIT * skill.STORED)
    certain = (Skill(FIRST.mu + step, 1), Skill(FIRST.mu, 1))
    assert skill.points(certain[0].mu) == 1900
    assert chances(*certain)[0] in (90, 91, 92)
