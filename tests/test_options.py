"""The one option schema: each value is read from its canonical text or its typed form,
and nothing else, through the Python API, the command line and the web API alike."""

from __future__ import annotations

import enum
import json
import math
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import pytest
from clirun import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamesearch.errors import InvalidOptionError
from gamesearch.options import Option, configure, field_options, option_field
from gamesearch.plugins import default_registry
from gamesearch.search.base import Limit, Searcher

if TYPE_CHECKING:  # (for type checking only: an annotation naming it does not resolve)
    from decimal import Decimal

INTEGER = Option("count", int, 3, "a count")
NUMBER = Option("share", float, 0.5, "a share")
SWITCH = Option("switch", bool, False, "a switch")


def _json_scalar(text: str) -> Any:
    """Return what the JSON module reads ``text`` as, or a marker when it refuses it."""

    def refuse(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=refuse)
    except ValueError:
        return refuse


def _canonical_integer(text: str) -> bool:
    """The oracle: ``text`` is an integer as JSON writes it, with nothing around it."""
    value = _json_scalar(text)
    return text == text.strip() and type(value) is int


def _canonical_number(text: str) -> bool:
    """The oracle: ``text`` is a finite JSON number, with nothing around it."""
    value = _json_scalar(text)
    is_number = type(value) in (int, float)
    return text == text.strip() and is_number and math.isfinite(value)


def _reads(option: Option, value: Any) -> bool:
    try:
        option.read(value)
    except InvalidOptionError as error:
        assert str(error).startswith(f"option {option.name!r} must be "), error
        return False
    return True


NUMBER_CHARACTERS = st.text(alphabet="0123456789-+._eE naif\t", max_size=8)


# ------------------------------------------------------------------ Python API
@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_an_integer_is_read_from_its_canonical_text_and_as_itself(number: int) -> None:
    assert INTEGER.read(str(number)) == number
    assert INTEGER.read(number) == number
    assert INTEGER.text(number) == str(number)


@given(st.integers(min_value=0, max_value=10**6))
def test_the_lenient_forms_of_an_integer_are_refused(number: int) -> None:
    text = str(number)
    lenient = [f" {text}", f"{text} ", f"+{text}", f"{text}.0", f"0{text}", f"{text}e0"]
    if len(text) > 1:
        lenient.append(f"{text[0]}_{text[1:]}")
    for form in lenient:
        assert not _reads(INTEGER, form), form
    assert not _reads(INTEGER, float(number))  # 3.0 is a number, not an integer
    assert not _reads(INTEGER, number != 0)  # a boolean is no integer


@given(NUMBER_CHARACTERS)
def test_integer_text_is_read_exactly_when_json_reads_it_as_an_integer(text: str) -> None:
    assert _reads(INTEGER, text) == _canonical_integer(text)


@given(NUMBER_CHARACTERS)
def test_number_text_is_read_exactly_when_json_reads_it_as_a_finite_number(text: str) -> None:
    assert _reads(NUMBER, text) == _canonical_number(text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_number_is_read_from_its_text_and_as_itself(number: float) -> None:
    assert NUMBER.read(NUMBER.text(number)) == number
    assert NUMBER.read(number) == number


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan", "inf", "1e999", True])
def test_a_number_must_be_finite_and_not_a_boolean(value: Any) -> None:
    with pytest.raises(InvalidOptionError, match=r"option 'share' must be a finite number: "):
        NUMBER.read(value)


@given(st.text(max_size=6))
def test_boolean_text_is_one_of_its_words_exactly(text: str) -> None:
    words = {"true": True, "on": True, "yes": True, "false": False, "off": False, "no": False}
    assert _reads(SWITCH, text) == (text in words)
    if text in words:
        assert SWITCH.read(text) is words[text]


@pytest.mark.parametrize("value", [1, 0, "1", "True", " on", 1.0, None])
def test_a_boolean_is_a_boolean(value: Any) -> None:
    with pytest.raises(InvalidOptionError, match=r"option 'switch' must be true or false: "):
        SWITCH.read(value)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen(kw_only=True)
class Settings:
    """An attrs class whose fields declare options (as a searcher's do)."""

    depth: int | None = option_field(None, "plies", minimum=1)
    colour: Colour = option_field(Colour.RED, "a colour")
    style: str = option_field("fast", "how", choices=("fast", "slow"))
    share: float = option_field(0.5, "a share", minimum=0, maximum=1)


def test_fields_declare_their_options_once_type_from_the_annotation() -> None:
    options = field_options(Settings)
    assert options["depth"] == Option("depth", int, None, "plies", minimum=1, optional=True)
    assert options["colour"].type is Colour
    assert options["style"].choices == ("fast", "slow")
    built = configure(Settings, {"depth": "4", "colour": "blue", "share": "1"}, owner="settings")
    assert built == Settings(depth=4, colour=Colour.BLUE, share=1.0)
    assert configure(Settings, {"depth": "none"}, owner="settings").depth is None


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"depth": "0"}, r"^settings: option 'depth' must be >= 1: 0$"),
        ({"depth": "1_0"}, r"^settings: option 'depth' must be an integer or none: '1_0'$"),
        ({"colour": "Red"}, r"^settings: option 'colour' must be one of red, blue: 'Red'$"),
        ({"style": "quick"}, r"^settings: option 'style' must be one of fast, slow: 'quick'$"),
        ({"share": "1.5"}, r"^settings: option 'share' must be <= 1: 1.5$"),
        ({"size": "3"}, r"^settings: unknown option 'size'; valid options: colour, depth, "),
    ],
)
def test_every_refusal_has_one_format(given: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        configure(Settings, given, owner="settings")


def test_a_searcher_made_in_python_is_checked_by_the_same_schema() -> None:
    alphabeta = default_registry().searcher_class("alphabeta")
    with pytest.raises(InvalidOptionError, match=r"option 'depth' must be an integer or none: '3'"):
        alphabeta(depth="3")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match=r"option 'seconds' must be >= 0.001: 1e-300"):
        Limit(seconds=1e-300)
    assert alphabeta.configured({"depth": "3", "table": "on"}) == alphabeta(depth=3, table=True)  # type: ignore[call-arg]


@attrs.frozen(kw_only=True)
class Biased(Searcher):
    """A plugin's searcher whose option names a type imported for type checking only."""

    name: ClassVar[str] = "biased"
    bias: Decimal | None = option_field(None, "a bias")


def test_an_option_the_schema_cannot_type_takes_what_it_is_given_none_included() -> None:
    anything = Option("extra", Any, None, "anything")
    assert anything.check(None) is None
    assert anything.read(None) is None
    assert anything.read([1, "two"]) == [1, "two"]
    # its annotations do not resolve at run time: every option is read as it is given,
    # and the defaults (None among them) still fit
    assert field_options(Biased)["bias"].type is Any
    assert Biased().bias is None
    assert Biased(bias=None, seed=None) == Biased()


def test_the_old_readers_still_work_and_say_where_the_new_one_is() -> None:
    from gamesearch.game import _convert_strictly  # type: ignore[attr-defined]
    from gamesearch.search.base import _convert_text
    from gamesearch.web.service import check_option_value

    alphabeta = default_registry().searcher_class("alphabeta")
    with pytest.warns(DeprecationWarning, match=r"use Searcher.configured"):
        assert alphabeta.from_options({"depth": "2"}).depth == 2
    with pytest.warns(DeprecationWarning, match=r"gamesearch.options.Option.read"):
        assert _convert_strictly(int, "12") == 12
    with pytest.warns(DeprecationWarning, match=r"gamesearch.options"):
        assert _convert_text(attrs.fields_dict(alphabeta)["depth"], "5") == 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(InvalidOptionError, match=r"must be an integer: '1_0'"):
            check_option_value("option 'rows'", "1_0", (int,))


# ---------------------------------------------------------------- command line
LENIENT_DEPTHS = ["1_0", " 3", "3 ", "+3", "03", "3.0", "three", "True"]
# (capsys is read and emptied by every run, so sharing it between examples is safe)
CLI_SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
#: one free cell: every search is one move deep
NEARLY_FULL = "XOX/XOO/OX."


@CLI_SETTINGS
@given(st.integers(min_value=1, max_value=40))
def test_the_command_line_reads_a_canonical_depth(
    capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    spec = f"alphabeta:depth={depth}"
    status, out, err = run_cli(capsys, "analyze", "tictactoe", "-p", NEARLY_FULL, "-s", spec)
    assert status == 0, err


@pytest.mark.parametrize("text", LENIENT_DEPTHS)
def test_the_command_line_refuses_a_lenient_depth_and_game_option(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    status, _, err = run_cli(capsys, "analyze", "tictactoe", "-s", f"alphabeta:depth={text}")
    assert status == 2 and f"option 'depth' must be an integer or none: {text!r}" in err, err
    status, _, err = run_cli(capsys, "analyze", "tictactoe", "-o", f"rows={text}")
    assert status == 2 and f"option 'rows' must be an integer: {text!r}" in err, err


# -------------------------------------------------------------------- web API
@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from gamesearch.web.app import create_app
    from gamesearch.web.service import Limits

    app = create_app(default_registry(), Limits(max_nodes=20_000, seconds=2.0))
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


def _analyze(client: Any, **body: Any) -> Any:
    return client.post("/api/analyze", json={"game": "tictactoe", "position": NEARLY_FULL, **body})


@CLI_SETTINGS
@given(st.integers(min_value=1, max_value=40), st.booleans())
def test_the_web_api_reads_a_depth_as_text_or_as_a_number(
    client: Any, depth: int, as_text: bool
) -> None:
    value = str(depth) if as_text else depth
    response = _analyze(client, searcher="alphabeta", searcher_options={"depth": value})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("value", [*LENIENT_DEPTHS, 3.0, True])
def test_the_web_api_refuses_a_lenient_depth_and_game_option(client: Any, value: Any) -> None:
    response = _analyze(client, searcher="alphabeta", searcher_options={"depth": value})
    assert response.status_code == 422
    error = response.json()["error"]
    assert f"option 'depth' must be an integer or none: {value!r}" in error, error
    response = _analyze(client, options={"rows": value})
    assert response.status_code == 422
    assert f"option 'rows' must be an integer: {value!r}" in response.json()["error"]


def test_the_searcher_class_reads_what_the_web_and_the_command_line_read() -> None:
    searcher: type[Searcher] = default_registry().searcher_class("iterative")
    assert searcher.configured({"seconds": "0.5", "depth": "4", "clock": "cpu"}).depth == 4
