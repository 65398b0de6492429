"""The services' typed results (TypedDicts beside the services that make them) say the
same fields as the API's models (winnable.web.models.schemas) that the routes answer
them as: mypy checks each service against its TypedDict, this checks each TypedDict
against its model, so a field added to one and not the other fails here."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from winnable.web import errors
from winnable.web.models import schemas
from winnable.web.play import games, lookup, pace, solution, solving, state
from winnable.web.players import accounts, calendar, challenges, daily, ranking, stats
from winnable.web.routes import auth, security, summaries
from winnable.web.security import proof

PAIRS = [
    (state.GameState, schemas.GameState),
    (state.Score, schemas.Score),
    (games.PositionAt, schemas.PositionAt),
    (pace.NotRanked, schemas.NotRanked),
    (ranking.LeaderboardEntry, schemas.LeaderboardEntry),
    (daily.Leaderboard, schemas.Leaderboard),
    (daily.DailyAttemptSummary, schemas.DailyAttemptSummary),
    (daily.DailyGame, schemas.DailyGame),
    (daily.DailyOverview, schemas.DailyOverview),
    (calendar.DailyCalendar, schemas.DailyCalendar),
    (calendar.CalendarDay, schemas.CalendarDay),
    (calendar.CalendarGame, schemas.CalendarGame),
    (calendar.Streaks, schemas.Streaks),
    (challenges.ChallengeAttemptSummary, schemas.ChallengeAttemptSummary),
    (challenges.ChallengeView, schemas.ChallengeView),
    (challenges.ChallengeListed, schemas.ChallengeListed),
    (challenges.ChallengeList, schemas.ChallengeList),
    (stats.GameStatistics, schemas.GameStatistics),
    (stats.HistoryEntry, schemas.HistoryEntry),
    (stats.DealAttempt, schemas.DealAttempt),
    (stats.DealRecord, schemas.DealRecord),
    (stats.Statistics, schemas.Statistics),
    (solving.WinningHint, schemas.Hint),
    (solution.Frame, schemas.SolutionFrame),
    (solving.Checked, schemas.Checked),
    (solving.Analysis, schemas.Analysis),
    (auth.Me, schemas.Me),
    (security.CsrfToken, schemas.CsrfToken),
    (lookup.CatalogEntry, schemas.CatalogEntry),
    (summaries.SummaryEntry, summaries.Summary),
    (summaries.SummariesAnswer, summaries.Summaries),
    (accounts.AccountExport, schemas.AccountExport),
    (accounts.ExportedAccount, schemas.ExportedAccount),
    (errors.Problem, schemas.Problem),
    (proof.ProofProblem, schemas.ProofProblem),
    (proof.AltchaChallenge, schemas.AltchaChallenge),
]


def keys(typed: type) -> tuple[frozenset[str], frozenset[str]]:
    """A TypedDict's required and optional keys."""
    return typed.__required_keys__, typed.__optional_keys__  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed, model", PAIRS, ids=[typed.__name__ for typed, _ in PAIRS])
def test_the_typed_result_has_the_models_fields(typed: type, model: type[BaseModel]) -> None:
    required, optional = keys(typed)
    assert required | optional == set(model.model_fields)
    # A key the service may leave out must be one the model may do without.
    for name in optional:
        assert not model.model_fields[name].is_required(), name


def test_a_hint_without_a_move_leaves_out_only_what_the_model_may_do_without() -> None:
    required, optional = keys(solving.Hint)
    assert not optional
    left_out = set(schemas.Hint.model_fields) - required
    assert left_out == {"describe", "line_length", "why", "why_code"}
    assert all(not schemas.Hint.model_fields[name].is_required() for name in left_out)


def test_a_leaderboard_entry_goes_out_without_its_player_id() -> None:
    assert "user_id" in keys(ranking.RankedEntry)[0]
    entry: ranking.RankedEntry = {
        "user_id": 7,
        "player": "ada",
        "status": "won",
        "seconds": 12.5,
        "moves": 40,
        "undos": 0,
        "cards_left": 0,
        "partial": None,
        "speed": None,
        "finished_at": None,
        "not_ranked": None,
        "rank": 1,
    }
    out = ranking.shown(entry, entry)
    assert list(out) == [key for key in entry if key != "user_id"] + ["you"]
    assert out["you"] is True and ranking.shown(entry, None)["you"] is False
    assert set(out) == set(schemas.LeaderboardEntry.model_fields)
