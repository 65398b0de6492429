"""The JSON the API reads and writes, for validation and the OpenAPI docs at ``/docs``.

Positions and move descriptions depend on the game's family, so they are free-form
objects here: ``position`` is :func:`winnable.web.views.player_view` (Black Hole: ``foundation`` and
17 ``piles``; free-cell family: ``columns``, ``cells``, ``foundations``, ``base_rank``,
``score``; spider family: ``columns`` of ``{"down": n, "up": [...]}``, ``stock``,
``foundations``), and each ``legal`` entry is one :func:`~winnable.web.views.click_choices` entry: ``move``
(notation), ``from``, ``to``, ``card``, ``count``, in click-to-move priority.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    StringConstraints,
    WithJsonSchema,
    field_validator,
)

from winnable.deals import MAX_DEAL

UndoMode = Literal["unlimited", "one", "none"]
GradeName = Literal["easy", "medium", "hard", "expert"]  # winnable.grading.Grade
VerdictName = Literal["won", "lost", "unknown"]

# Every cap and range the server holds a request to is in its schema (``/openapi.json``),
# so that what the schema accepts, the server takes, and nothing else. Booleans are
# strict (``true``, never ``0`` or ``"yes"``) and integers are JSON Schema's (``7`` and
# ``7.0``, never ``"7"`` or ``true``).


def _whole(value: Any) -> Any:
    """JSON Schema's integers include ``7.0``: a float with nothing after the point is its int."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


Flag = Annotated[bool, Strict()]
DEAL_TEXT = re.compile(r"[1-9][0-9]{0,19}")
"""A deal number written as text: its digits, without sign, spaces or leading zeros."""


def _deal(value: Any) -> int | str | None:
    """A deal number as the schema below says it: one error, not one per branch."""
    value = _whole(value)
    if value is None or (isinstance(value, str) and DEAL_TEXT.fullmatch(value)):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_DEAL:
        return value
    raise ValueError(f"a deal number is 1 to {MAX_DEAL}, as a number or as its digits")


Deal = Annotated[
    int | str | None,
    PlainValidator(_deal),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": MAX_DEAL},
                {"type": "string", "pattern": f"^{DEAL_TEXT.pattern}$"},
                {"type": "null"},
            ]
        }
    ),
]
ThinkSeconds = Annotated[Literal[10, 30, 60], BeforeValidator(_whole)]  # winnable.web.play.scores.THINK_CHOICES
# Something besides white space: the characters are listed, since JSON Schema's `\S` (ECMA-262)
# and the validator's (Unicode White_Space) disagree on U+0085 and U+FEFF.
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
MOVE_TEXT = Field(
    description="A move in the game's notation (a `legal` entry's `move`); one this game cannot read: 409 `bad_move`.",
    min_length=1,
    max_length=64,
    pattern=f"[^{WHITE_SPACE}]",
)
NAME_PATTERN = r"^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$"  # winnable.web.players.accounts.check_name
# No control characters (category Cc) and something besides spaces: the schema's share of
# winnable.web.security.passwords.check_password, which also refuses a password of invisible characters.
PASSWORD_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"


class NewGame(BaseModel):
    """Start a game: a given deal, a random deal, or a deal proved winnable."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"game": "black-hole", "deal": 2}, {"game": "black-hole", "winnable": True, "undo": "one"}]}
    )

    game: str = Field(description="Game id from /api/catalog, e.g. black-hole.", max_length=64)
    deal: Deal = Field(None, description="PySolFC deal number, 1 to 10**20-1 (a number, or its digits as text); random if omitted.")
    winnable: Flag = Field(False, description="Deal a number the solver proved winnable (ignores deal).")
    grade: GradeName | None = Field(
        None,
        description="With `winnable`: a deal of this grade (easy, medium, hard or expert; omitted or null: any). "
        "Without `winnable`: 409 `bad_grade`. None of that grade proved yet: 409 `no_graded_deal`.",
    )
    undo: UndoMode = Field("unlimited", description="unlimited, one (once a game) or none.")
    think: ThinkSeconds | None = Field(
        None,
        description="Black Hole's timed play: seconds allowed for each move "
        "(10, 30 or 60); running out loses the game. Other games: "
        "409 `bad_think`.",
    )


class PlayMove(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"move": "KH"}]})

    move: str = MOVE_TEXT
    auto: Flag = Field(False, description="Then play every safe move to the foundations it opens (the state's `safe`).")


class Undo(BaseModel):
    auto: Flag = Field(False, description="Also take back the safe moves home played after the last move chosen.")


MoveText = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class TakeOver(BaseModel):
    """Play the start of a shown winning line as the player's own moves."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra={"examples": [{"from": 12, "moves": ["3o", "6a"]}]})

    start: int = Field(
        alias="from",
        ge=0,
        le=10_000,
        description="The game's move count when the line was shown (the solution's `from`); another: 409 `stale`.",
    )
    moves: list[MoveText] = Field(
        min_length=1, max_length=500, description="The moves to play, in order, all or none (one illegal: 409 `illegal_move`)."
    )


class Empty(BaseModel):
    """The body of a call that needs no options: ``{}`` (state-changing calls always
    send a JSON body; see the CSRF rules in the API description)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{}]})


class Problem(BaseModel):
    """Every error: a stable machine-readable ``code`` and a sentence for the player."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"code": "game_not_found", "detail": "no game with id 'abc'"}]})

    code: str = Field(description="Stable machine-readable error code (see the API description).")
    detail: str = Field(description="A sentence for the player on what went wrong.")


class FieldProblem(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationProblem(Problem):
    errors: list[FieldProblem] = Field(default_factory=list, description="Each field that did not validate.")


class CsrfToken(BaseModel):
    token: str = Field(
        description="Send it back in the header named below with state-changing calls "
        "that carry no Origin header (scripts; browsers send Origin)."
    )
    header: str
    expires_in: int = Field(description="Seconds the token stays valid.")


class Traits(BaseModel):
    """What a game can do (:class:`winnable.games.Traits`): the game page reads them."""

    view: str = Field(description="The module that draws the game: static/js/<view>.js.")
    score: Literal["none", "foundations", "taken-out"] = Field(description="What the score counts besides the win.")
    ranking: Literal["time", "speed"] = Field(description="How the leaderboard orders wins: fastest, or highest speed score.")
    timed_play: bool = Field(description="A move can be given a time limit (think seconds).")
    one_tap: bool = Field(description="One-tap moves start switched on.")
    click_move: bool = Field(description="A click moves the card to its first place (a setting).")
    safe_moves: bool = Field(description="The state names the safe moves home (a setting plays them).")
    times_by_undo: bool = Field(description="The statistics show the best time in each undo mode.")
    cells: Literal["cells", "flippers"] = Field(
        "cells", description="What the game calls its cells (Penguin's flippers), for the page's words."
    )


class CatalogEntry(BaseModel):
    id: str
    title: str
    family: str
    variant_of: str | None = Field(description="The game this one is a variant of (penguin for penguin-6), or null.")
    picture: list[str | None] = Field(description="Three cards the lobby draws for the game (null: a face-down card).")
    summary: str
    undo_modes: list[UndoMode]
    hidden_cards: bool
    traits: Traits
    links: dict[str, str]


class Score(BaseModel):
    won: bool
    partial: int = Field(description="Cards brought home so far.")
    out_of: int = Field(description="Cards there are to bring home.")
    cards_left: int
    moves: int
    seconds: float
    speed: int | None = Field(None, description="Penguin family, won games: 100000 // (moves + seconds).")


class NotRanked(BaseModel):
    """Why a Daily or ranked challenge attempt is kept out of the rankings: its moves
    came faster than a person plays (the server's time of each move; docs/fair-play.md)."""

    code: Literal["pace_median", "pace_total"] = Field(
        description="pace_median: the median time between the player's actions is under floor_seconds; "
        "pace_total: from the first action to the last, under floor_seconds an action."
    )
    actions: int = Field(description="The player's actions (requests that played moves).")
    seconds: float = Field(description="From the first action to the last, on the server's clock.")
    median_seconds: float = Field(description="The median time between two actions.")
    floor_seconds: float = Field(description="The floor the result is under.")


class GameState(BaseModel):
    id: str
    game: str
    title: str
    family: str
    deal: int | None = Field(
        description="The deal number (PySolFC's); null for a Daily, dealt from a secret deck order that no deal number reaches."
    )
    undo: UndoMode
    undo_left: int | None = Field(description="Undos left; null when unlimited.")
    redo_left: int = Field(0, description="Moves undone that `POST /api/games/{id}/redo` can play again (0: none).")
    moves: list[str]
    move_count: int
    position: dict[str, Any] = Field(description="The table as the player sees it (winnable.web.views.player_view).")
    legal: list[dict[str, Any]] = Field(description="Every legal move, described, in click-to-move priority.")
    safe: list[str] = Field(
        default_factory=list, description="Moves to the foundations that lose nothing: no card in play could be built on the card."
    )
    finish: list[str] | None = Field(None, description="When the rest of the game is a plain run home: its moves, in order.")
    status: Literal["playing", "won", "lost"]
    winnable_deal: bool
    grade: GradeName | None = Field(
        None, description="How hard the deal is (easy, medium, hard, expert), graded by the solver; null when not graded."
    )
    hidden_cards: bool
    restarts: int
    created_at: str
    started_at: str | None = Field(description="When the first move was played: the clock starts then.")
    finished_at: str | None
    elapsed_seconds: float
    score: Score
    undo_used: int = 0
    hints_used: int = Field(0, description="Hints asked in this game; a game won with hints is assisted.")
    assisted: bool = False
    think_seconds: int | None = Field(None, description="Timed play: seconds allowed for each move.")
    think_deadline: str | None = Field(None, description="Timed play: the current move must come before this moment.")
    think_left: float | None = Field(None, description="Timed play: seconds left for the current move, on the server's clock.")
    timed_out: bool = Field(False, description="Timed play: the time ran out, the game is lost.")
    daily: str | None = Field(None, description="The Daily (YYYY-MM-DD) this game is an attempt at.")
    challenge: str | None = Field(
        None, description="The challenge (its token) this game is the ranked attempt at: hints and restarts are off in it."
    )
    hint_allowed: bool = Field(
        True,
        description="Whether hints and analyses answer: not in a Daily while its day "
        "lasts, a ranked challenge attempt, nor any game of an open "
        "challenge's cards.",
    )
    not_ranked: NotRanked | None = Field(
        None, description="A Daily or ranked challenge attempt kept out of the rankings, and why; null otherwise."
    )
    restart_allowed: bool = True
    links: dict[str, str]


class PositionAt(BaseModel):
    id: str
    at: int
    moves: list[str]
    next_move: str | None
    position: dict[str, Any]
    legal: list[dict[str, Any]]
    status: Literal["playing", "won", "lost"]


Answered = Annotated[
    Literal["known", "searched", "shortened", "busy"],
    Field(
        description="How the answer was made: `known` (the game's kept hint line or a verdict the server knew, no search), "
        "`searched` (with the whole budget), `shortened` (the solver was crowded: a search of one time slice) or "
        "`busy` (no solver time came soon: what was known, else `unknown`)."
    ),
]


class Hint(BaseModel):
    move: str | None
    describe: dict[str, Any] | None = None
    verdict: VerdictName
    message: str
    knows_hidden: bool
    at: int = Field(description="Number of moves played when the hint was computed.")
    line_length: int | None = Field(
        None,
        description="Moves to win along the game's kept hint line (safe moves home "
        "included): it drops with every hinted move played, and grows only if the player leaves the line.",
    )
    why: str | None = Field(None, description="What the move does on the table, in the request's language (with a move only).")
    why_code: WhyCode | None = Field(None, description="The same as a stable code.")
    seconds: float
    cached: bool = Field(
        description="True when no search ran (the kept line, or what the server already knew): such a hint counts against no solver limit."
    )
    answered: Answered
    searching: bool = Field(
        False,
        description="True when no winning line was found within the hint's budget and a longer search of this position goes on "
        "in the background: ask again in a moment (the next hint here answers from it, with no search of its own). "
        "Such a hint is not counted as used.",
    )


WhyCode = Annotated[
    str,
    Field(
        description="What the move does on the table, as a stable code: `to_foundation`, `starts_foundation`, `completes_suit`, "
        "`empties_column`, `frees_cell`, `uncovers`, `turns_over`, `builds`, `to_empty_column`, `to_cell`, `deals`, "
        "`to_hole`, `removes_pair`."
    ),
]


class SolutionFrame(BaseModel):
    position: dict[str, Any] = Field(description="The table as the player sees it (as the game state's `position`).")
    status: Literal["playing", "won"]
    move: str | None = Field(description="The move that led here (null in the first frame).")
    describe: dict[str, Any] | None = Field(description="That move described, as the game state's `legal` items (null in the first frame).")
    cards_left: int
    why: str | None = Field(None, description="What that move does on the table, in the request's language.")
    why_code: WhyCode | None = None


class Solution(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    game_id: str
    start: int = Field(alias="from", description="The moves of the game the line starts after.")
    line: list[str] = Field(description="The winning line, as `POST /moves` takes its moves.")
    frames: list[SolutionFrame] = Field(description="The position at `from`, then after each move of the line (the last one is won).")
    source: Literal["kept", "searched"] = Field(description="`kept`: the game's hint line (no search); `searched`: found now.")
    assisted: bool = Field(description="Always true: the game counts as assisted.")


class Checked(BaseModel):
    at: int
    verdict: VerdictName
    cached: bool


class Analysis(BaseModel):
    verdict: VerdictName = Field(description="From the current position.")
    winnable: bool | None = Field(description="Whether the deal could be won from the start.")
    lost_at: int | None = Field(description="Index in moves of the move that lost the game.")
    losing_move: str | None
    better_move: str | None = Field(description="First move of a winning line after moves[:lost_at].")
    better_line_length: int | None
    moves: int
    knows_hidden: bool
    message: str
    positions: int = Field(description="Positions the solver searched for this answer.")
    checked: list[Checked] = Field(description="The positions looked at, by number of moves played.")
    seconds: float
    between: list[int] | None = None
    answered: Answered


class Health(BaseModel):
    status: Literal["up", "down"] = Field(description="Whether the server and its database answer.")


# -- players ---------------------------------------------------------------------------
class Credentials(BaseModel):
    """A player's name and password, to sign in (a name or password no account could
    have is only a wrong one: 401)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ada", "password": "correct horse battery"}]})

    name: str = Field(description="The player's name.", max_length=64)
    password: str = Field(description="The password.", max_length=128)
    altcha: str | None = Field(
        None,
        max_length=1024,
        description=(
            "For a name under guessing (its 401 or 429 carried an `altcha` challenge): the solved ALTCHA v1 payload, "
            "base64 of the JSON `algorithm`, `challenge`, `number`, `salt`, `signature`. Good once, for that name, "
            "until it expires; such a sign-in is counted apart from the name's guesses."
        ),
    )


class AltchaChallenge(BaseModel):
    """An ALTCHA v1 proof-of-work challenge: find the number ``n`` (0 to ``maxnumber``)
    whose ``algorithm`` digest of ``salt`` followed by ``n`` (in decimal) is ``challenge``."""

    algorithm: str = Field(description="The digest: SHA-256.")
    challenge: str = Field(description="The digest to find, in hexadecimal.")
    salt: str = Field(description="What the number follows (it says when the challenge expires).")
    signature: str = Field(description="The server's signature of the challenge, sent back unchanged.")
    maxnumber: int = Field(description="The largest number to try.")


class ProofProblem(Problem):
    """An error of a sign-in for a name under guessing: the next try needs ``altcha`` solved."""

    altcha: AltchaChallenge | None = Field(None, description="The proof of work the next sign-in of this name needs.")


class NewAccount(BaseModel):
    """The name and password of a new account."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ada", "password": "correct horse battery"}]})

    name: str = Field(
        description="3 to 24 letters or digits (A-Z, a-z, 0-9), with single . _ or - between them.",
        min_length=3,
        max_length=24,
        pattern=NAME_PATTERN,
    )
    password: str = Field(
        description="8 to 128 characters as typed (Unicode NFC), any but control characters, at least one of them visible and not a combining mark.",
        min_length=8,
        max_length=128,
        pattern=PASSWORD_PATTERN,
    )

    # The schema states the limits; the rules' own checks give the reason a player reads
    # (422 ``bad_name``, ``bad_password`` or ``blank_password``, translated) rather than
    # the schema's pattern. They run first and raise the API error themselves.
    @field_validator("name", mode="before")
    @classmethod
    def _reasoned_name(cls, name: Any) -> Any:
        from winnable.web.players.accounts import check_name

        return check_name(name)

    @field_validator("password", mode="before")
    @classmethod
    def _reasoned_password(cls, password: Any) -> Any:
        from winnable.web.security.passwords import check_password

        check_password(password)
        return password


class Password(BaseModel):
    password: str = Field(description="The account's password, asked again.", max_length=128)


class PlayerSettings(BaseModel):
    """A player's display and sound settings, kept with the account (every key optional;
    an unknown key or value is refused with 422)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"deck": "four", "theme": "light", "sound": True}]})

    deck: Literal["two", "four"] | None = Field(
        None, description="Two colours (red and black) or four (spades black, hearts red, diamonds blue, clubs green)."
    )
    theme: Literal["dark", "light", "system"] | None = Field(
        None, description="The page's colours: the dark felt, a light one, or as the system says."
    )
    card_size: Literal["small", "medium", "large"] | None = Field(None, description="The cards' size, within what the screen allows.")
    hand: Literal["right", "left"] | None = Field(None, description="Left: the game's buttons mirrored for the left hand.")
    sound: Flag | None = Field(None, description="Sound effects (off unless chosen).")
    muted: Flag | None = Field(None, description="Sound effects silenced for now.")


class Me(BaseModel):
    signed_in: bool
    name: str | None = Field(description="The signed-in player's name.")
    guest: bool = Field(description="A guest session (this browser's games) and nobody signed in.")


class ExportedAccount(BaseModel):
    name: str
    created_at: str | None
    sessions: int
    language: str | None = Field(None, description="The language chosen with the switch (en, fr, nl), if any.")
    settings: dict[str, Any] = Field(default_factory=dict, description="The display and sound settings kept with the account.")


class AccountExport(BaseModel):
    account: ExportedAccount
    games: list[dict[str, Any]]
    daily_attempts: list[dict[str, Any]]


class DailyAttemptSummary(BaseModel):
    status: str
    rank: int | None = Field(description="null: not ranked (see not_ranked).")
    not_ranked: NotRanked | None = None
    seconds: float | None
    moves: int
    cards_left: int


class DailyGame(BaseModel):
    game: str
    title: str
    available: bool = Field(description="Whether the game has a Daily (a deal proved winnable).")
    players: int = Field(description="Attempts so far today.")
    attempt: DailyAttemptSummary | None = Field(description="The signed-in player's attempt today.")
    grade: GradeName | None = Field(
        None,
        description="How hard today's Daily is: the drawn deal's grade once drawn, else the grade of the day (it follows the week).",
    )


class DailyOverview(BaseModel):
    date: str
    next_in_seconds: int = Field(description="Seconds until the next Daily (midnight UTC).")
    signed_in: bool
    games: list[DailyGame]


class CalendarGame(BaseModel):
    game: str
    title: str = Field(description="The game's title, in the request's language.")
    status: Literal["won", "lost", "playing", "not_played"] = Field(
        description="Your attempt at that game's Daily that day (`playing`: today's, not finished)."
    )
    grade: GradeName | None = Field(description="The grade that Daily was drawn at (null: not drawn, or before grades).")
    points: int = Field(description="Points of a win: easy 1, medium 2, hard 3, expert 5; else 0.")


class CalendarDay(BaseModel):
    date: str
    weekday: int = Field(description="1 Monday to 7 Sunday (ISO).")
    grade: GradeName = Field(description="The grade the Dailies of that day are drawn at (it follows the week).")
    today: bool
    future: bool
    won: int = Field(description="Dailies you won that day.")
    played: int = Field(description="Dailies you played that day.")
    points: int
    games: list[CalendarGame] = Field(description="Every game with a Daily: your result that day.")


class Streaks(BaseModel):
    current: int = Field(description="Days in a row, up to today (or yesterday, while today is open), with a Daily won.")
    best: int = Field(description="The most days in a row with a Daily won, ever.")


class DailyCalendar(BaseModel):
    month: str = Field(description="YYYY-MM")
    today: str
    days: list[CalendarDay]
    won: int = Field(description="Dailies won in the month.")
    played: int
    points: int
    badge: Literal["bronze", "silver", "gold"] | None = Field(
        description="The month's badge, by Dailies won (bronze 5, silver 15, gold 30)."
    )
    next_badge: Literal["bronze", "silver", "gold"] | None
    to_next_badge: int | None = Field(description="Dailies still to win this month for the next badge (null: gold already).")
    streaks: Streaks
    points_by_grade: dict[str, int] = Field(description="Points a win of each grade is worth.")
    badges: dict[str, int] = Field(description="Dailies won in a month that each badge needs.")


class LeaderboardEntry(BaseModel):
    rank: int | None = Field(description="null only in your_result: an attempt not ranked (see not_ranked).")
    player: str | None = Field(description="null for a deleted account.")
    status: Literal["won", "lost", "playing", "unfinished"]
    seconds: float | None = Field(description="Wins: the time from the deal to the last move.")
    moves: int
    undos: int
    cards_left: int
    partial: int | None = Field(description="Penguin family: cards on the foundations, of 52.")
    speed: int | None = Field(None, description="Penguin family: the speed score of a win (wins rank by it).")
    finished_at: str | None
    you: bool
    not_ranked: NotRanked | None = Field(None, description="Only in your_result: why your attempt is not ranked.")


class Leaderboard(BaseModel):
    game: str
    title: str
    date: str
    over: bool = Field(description="The day is over: the results are final.")
    deal: int | None = Field(
        description="The deal number of a Daily stored before Dailies were dealt from deck orders, once the day is over; else null."
    )
    layout: str | None = Field(
        None,
        description="The Daily's cards in dealing order (the deck order it was dealt "
        "from, cards separated by spaces), once the day is over; null before.",
    )
    players: int = Field(description="Ranked attempts.")
    grade: GradeName | None = Field(None, description="The Daily's grade (null: not drawn yet, or drawn before grades).")
    your_rank: int | None
    your_result: LeaderboardEntry | None = Field(None, description="Your attempt's result, ranked or not.")
    entries: list[LeaderboardEntry]


class GameStatistics(BaseModel):
    game: str
    title: str
    played: int
    won: int = Field(description="Wins without hints.")
    assisted_wins: int
    lost: int
    win_rate: float = Field(description="won / played.")
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None
    best_seconds_by_undo: dict[str, float] | None = Field(description="Black Hole and Fourteen Out: best time per undo rule.")
    partial_average: float | None = Field(description="Penguin family: average cards home, of 52.")
    partial_best: int | None
    speed_best: int | None = Field(description="Penguin family: best speed score.")
    removed_average: float | None = Field(default=None, description="Fourteen Out: average cards taken out, of 52.")
    removed_best: int | None = Field(default=None, description="Fourteen Out: most cards taken out in one game.")


class HistoryEntry(BaseModel):
    game: str
    at: str
    status: str
    assisted: bool
    seconds: float | None
    moves: int
    cards_left: int | None
    out_of: int | None = Field(description="Cards the deal has to bring home.")
    daily: str | None


class DealAttempt(BaseModel):
    id: str = Field(description="Your game's id.")
    at: str = Field(description="When its result was reached (or it was last played).")
    status: str
    seconds: float | None = Field(description="From the first move to the last, for a game won or lost.")
    moves: int
    undos: int
    hints: int
    undo_rule: UndoMode
    current: bool = Field(description="The game the record was asked from.")


class DealRecord(BaseModel):
    game: str
    title: str
    deal: int | None = Field(description="The deal number; null for a deal dealt from a deck order (a Daily, a challenge).")
    daily: str | None = Field(description="The Daily (YYYY-MM-DD) the deal was, if it was one.")
    played: int
    attempts: list[DealAttempt] = Field(description="Your games of the deal, oldest first.")


class Statistics(BaseModel):
    player: str | None
    signed_in: bool
    games: list[GameStatistics]
    history: list[HistoryEntry]
    records: list[DealRecord] = Field(
        default_factory=list, description="Every deal you played more than once: your games of it side by side."
    )


def exact_bounds(openapi: dict[str, Any]) -> dict[str, Any]:
    """``openapi`` with the integer bounds of these models as they are: FastAPI's OpenAPI
    models hold bounds as floats, so 10**20 - 1, the last deal number, would read 1e20.

    >>> deal = {"anyOf": [{"type": "integer", "maximum": 1e20}, {"type": "string"}, {"type": "null"}]}
    >>> spec = {"components": {"schemas": {"NewGame": {"properties": {"deal": deal}}}}}
    >>> exact_bounds(spec)["components"]["schemas"]["NewGame"]["properties"]["deal"]["anyOf"][0]["maximum"]
    99999999999999999999
    """
    for name, component in openapi.get("components", {}).get("schemas", {}).items():
        model = globals().get(name)
        if isinstance(model, type) and issubclass(model, BaseModel):
            _restore(component, model.model_json_schema())
    return openapi


def _restore(theirs: Any, ours: Any) -> None:
    if isinstance(theirs, dict) and isinstance(ours, dict):
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if key in theirs and isinstance(ours.get(key), int):
                theirs[key] = ours[key]
        for key, value in theirs.items():
            if key in ours:
                _restore(value, ours[key])
    elif isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours):
        for mine, own in zip(theirs, ours):
            _restore(mine, own)


# -- challenges ------------------------------------------------------------------------------
class NewChallenge(BaseModel):
    """Make a challenge from one of your games (started or finished)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"game_id": "Zq3v0xYw1bC9"}]})

    game_id: str = Field(
        description="The id of one of your games; its deal and settings become the challenge's.",
        min_length=1,
        max_length=32,
        pattern=r"^[A-Za-z0-9_-]+$",
    )


class ChallengePlay(BaseModel):
    """Deal a challenge to the caller."""

    model_config = ConfigDict(json_schema_extra={"examples": [{}, {"ranked": False}]})

    ranked: Flag = Field(
        True,
        description="The signed-in player's one ranked attempt (default), or an unranked "
        "game of the same cards (false). Guests always play unranked.",
    )


class ChallengeAttemptSummary(BaseModel):
    id: str = Field(description="The game id of your ranked attempt.")
    status: str
    rank: int | None = Field(description="null: not ranked (see not_ranked).")
    not_ranked: NotRanked | None = None


class ChallengeView(BaseModel):
    id: str = Field(description="The challenge's random token: its page is /challenge/{id}.")
    game: str
    title: str
    family: str
    undo: UndoMode
    think_seconds: int | None
    created_at: str | None
    closes_at: str = Field(
        description="When it closes: until then no game of its cards gets hints or analyses, "
        "for anyone, and ranked attempts are dealt; then its results are final."
    )
    open: bool = Field(description="It has not closed yet.")
    creator: str | None = Field(description="Who made it; null once the account is deleted.")
    yours: bool = Field(description="You made it.")
    deal: int | None = Field(description="The deal number it was made from: shown to its creator only.")
    signed_in: bool
    players: int = Field(description="Ranked attempts so far.")
    your_rank: int | None
    your_attempt: ChallengeAttemptSummary | None
    entries: list[LeaderboardEntry]
    links: dict[str, str]


class ChallengeListed(BaseModel):
    id: str
    game: str
    title: str
    undo: UndoMode
    created_at: str | None
    closes_at: str
    players: int
    links: dict[str, str]


class ChallengeList(BaseModel):
    challenges: list[ChallengeListed]
