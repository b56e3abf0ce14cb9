"""What the web page is served, without a browser: its files, the catalogs it translates with
(the terminal's own), the replay of a record position by position, and the state frames'
extensions it draws from (the picture, a placement's scored ends, a settlement's reckoning)."""

from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from exact61 import Match, Phase, i18n, match_to_record, replay
from exact61.render.geometry import picture_json
from exact61.server.frames import last_entries, round_end_json, state_frame
from exact61.server.web import asset_version
from exact61.table import Table
from tests.helpers import played_match
from tests.i18n.test_i18n import PLURAL_RULES
from tests.server.kit import Server, database_url, play_game, server_in_thread

STATIC = Path(i18n.__file__).parents[1] / "server" / "static"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("web-api")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


# ---- the page's messages ----------------------------------------------------------------------


def page_messages() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for _f, _line, message, _c, _ctx in extract_from_dir(
        STATIC / "js", method_map=[("**.js", "javascript")], keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def test_every_message_of_the_page_is_extracted() -> None:
    """Babel's JavaScript extractor reads every `_("...")` call (a template literal around a
    call would hide the calls after it), so the catalogs below really cover the page."""
    written = set()
    for path in (STATIC / "js").glob("*.js"):
        for call in re.finditer(r'\b(?:_|N_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"', path.read_text()):
            written.add(call.group(1))
    extracted = {m if isinstance(m, str) else m[0] for m in page_messages()}
    assert written == extracted
    assert len(extracted) > 120


def test_the_page_names_the_same_bot_for_each_level_as_the_terminal() -> None:
    from exact61.bots import LEVELS

    words = (STATIC / "js" / "words.js").read_text()

    def table(name: str) -> dict[str, str]:
        found = re.search(rf"\b{name} = \{{([^}}]*)\}}", words)
        assert found, name
        return dict(re.findall(r'(\w+): "([\w:]+)"', found.group(1)))

    assert table("LEVELS") == LEVELS  # the page's LEVEL_OF is made from it


@pytest.mark.parametrize("lang", ["de", "pl", "ru"])
def test_every_message_of_the_page_is_translated(lang: str) -> None:
    template = read_po((i18n.LOCALE_DIR / "messages.pot").open("rb"))
    listed = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id}
    catalog = read_po((i18n.LOCALE_DIR / f"{lang}.po").open("rb"), locale=lang)
    translated = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    forms = PLURAL_RULES[lang][0]
    for key in page_messages():
        assert key in listed, f"{key!r} is not in messages.pot"
        assert key in translated, f"{lang}: no translation for {key!r}"
        message = translated[key]
        strings = [message.string] if isinstance(key, str) else list(message.string)
        assert all(strings) and not message.fuzzy, (lang, key)
        if not isinstance(key, str):
            assert len(strings) == forms, (lang, key)
        english = key if isinstance(key, str) else key[1]
        for text in strings:
            assert set(re.findall(r"\{(\w*)\}", text)) == set(re.findall(r"\{(\w*)\}", english))


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
def test_the_catalog_served_to_the_page(server: Server, lang: str) -> None:
    answer = httpx.get(f"{server.url}/api/lang/{lang}")
    assert answer.status_code == 200
    catalog = answer.json()
    assert catalog["lang"] == lang and set(catalog["languages"]) == set(i18n.LANGUAGES)
    assert catalog["rules"] == i18n.rule_paragraphs(lang) and "R13" in catalog["rules"]
    rule = PLURAL_RULES.get(lang, (2, lambda n: 0 if n == 1 else 1))[1]
    table = catalog["plural"]
    # the page reads a count n >= 200 as 100 + n % 100: the same form, by each language's rule
    for n in [*range(300), 1001, 1011, 1022, 12345]:
        served = table[n] if n < len(table) else table[100 + n % 100]
        assert served == rule(n), (lang, n)
    translations = i18n.translations(lang)
    for msgid, text in catalog["messages"].items():
        assert translations.gettext(msgid) == text
    for singular, texts in catalog["plurals"].items():
        for n in (1, 2, 5, 22):
            plural = {"{n} tile": "{n} tiles", "{n} pip": "{n} pips"}.get(singular)
            if plural:
                assert translations.ngettext(singular, plural, n) == texts[table[n]]
    if lang == "en":
        assert catalog["messages"] == {} and catalog["plurals"] == {}
    else:
        assert catalog["messages"]["Seat {seat}"] == translations.gettext("Seat {seat}")
    assert httpx.get(f"{server.url}/api/lang/xx").status_code == 404


def test_the_page_and_its_files_are_served(server: Server) -> None:
    script = f'<script type="module" src="/v/{asset_version()}/js/main.js">'
    for path in ("/", "/index.html", "/g/abc", "/g/abc/watch", "/replay"):
        answer = httpx.get(server.url + path)
        assert answer.status_code == 200 and script in answer.text
    for file in STATIC.rglob("*"):
        if file.is_file() and file.name != "index.html":
            name = file.relative_to(STATIC).as_posix()
            for prefix in ("", f"v/{asset_version()}/"):  # plain and versioned names
                answer = httpx.get(f"{server.url}/{prefix}{name}")
                assert answer.status_code == 200, file
                assert answer.content == file.read_bytes()
    # every module the page imports is one of its files: nothing comes from elsewhere
    for file in (STATIC / "js").glob("*.js"):
        for imported in re.findall(r'from "([^"]+)"', file.read_text()):
            assert imported.startswith("./") and (file.parent / imported).is_file(), imported
    assert "http" not in (STATIC / "index.html").read_text().replace("http://www.w3.org", "")


# ---- replays ----------------------------------------------------------------------------------


def test_a_record_replayed_position_by_position(server: Server) -> None:
    match = played_match(3, 21, ["greedy", "random", "heuristic"])
    record = match_to_record(match, seed=21)
    answer = httpx.post(f"{server.url}/api/replays", json=record)
    assert answer.status_code == 200
    data = answer.json()
    assert data["players"] == 3 and data["winner"] == match.winner
    positions = data["positions"]
    index = 0
    for r, rnd in enumerate(record["rounds"]):
        deal = positions[index]  # the deal: every hand dealt, nothing on the table
        assert deal["round"] == r and deal["action"] == -1 and deal["picture"]["tiles"] == []
        assert deal["hands"] == rnd["hands"] and deal["boneyard"] == len(rnd["boneyard"])
        index += 1
        for a in range(len(rnd["actions"])):
            position = positions[index]
            assert (position["round"], position["action"]) == (r, a)
            truth = replay(record, stop_after=(r, a))
            assert position["hands"] == [[[t.low, t.high] for t in truth.hand(s)] for s in range(3)]
            assert position["scores"] == list(truth.scores)
            assert position["picture"] == picture_json(truth.layout)
            (action,) = [e for e in position["last"] if e["type"] == "action"]
            assert action["seat"] == rnd["actions"][a]["seat"]
            if rnd["actions"][a]["type"] == "draw":  # a record names the drawn tile
                assert action["action"]["tile"] == rnd["actions"][a]["tile"]
            index += 1
        assert "round_end" in positions[index - 1]
    assert index == len(positions)


def test_a_replay_gives_the_names_the_record_holds(server: Server) -> None:
    """The replay viewer showed `Seat 0` for a person the record names (issue 44): the answer
    gives the record's `names` as they are, one per seat; names of another shape are left out."""
    record = match_to_record(played_match(2, 4, ["greedy", "greedy"]), seed=4)
    record["names"] = ["Ada", None]
    answer = httpx.post(f"{server.url}/api/replays", json=record)
    assert answer.status_code == 200 and answer.json()["names"] == ["Ada", None]
    for names in (["Ada"], "Ada", [{"x": 1}, None]):
        record["names"] = names
        data = httpx.post(f"{server.url}/api/replays", json=record).json()
        assert data.get("names") in (None, [None, None]), (names, data.get("names"))
    del record["names"]
    assert "names" not in httpx.post(f"{server.url}/api/replays", json=record).json()


def test_a_record_that_does_not_verify_gets_one_line(server: Server) -> None:
    record = match_to_record(played_match(2, 3, ["greedy", "greedy"]), seed=3)
    record["rounds"][0]["actions"][2]["seat"] = 1 - record["rounds"][0]["actions"][2]["seat"]
    answer = httpx.post(f"{server.url}/api/replays", json=record)
    assert answer.status_code == 422
    message = answer.json()["message"]
    # The round as the page shows it (Round 1), as `exact61 replay` says it; it said "round 0".
    assert message.startswith("round 1, action 2: ") and "\n" not in message
    for body in (b"not json", b"[1, 2]", b'{"format": "other"}'):
        answer = httpx.post(f"{server.url}/api/replays", content=body)
        assert answer.status_code == 422 and answer.json()["error"] == "bad_record"
    answer = httpx.post(f"{server.url}/api/replays", content=b" " * (5 * 1024 * 1024))
    assert answer.status_code == 413


def test_long_replays_travel_compressed(server: Server) -> None:
    record = match_to_record(played_match(4, 8, ["greedy"] * 4), seed=8)
    answer = httpx.post(
        f"{server.url}/api/replays", json=record, headers={"accept-encoding": "gzip"}
    )
    assert answer.headers["content-encoding"] == "gzip"
    assert len(answer.json()["positions"]) > 50
    raw = httpx.post(
        f"{server.url}/api/replays", json=record, headers={"accept-encoding": "identity"}
    )
    assert "content-encoding" not in raw.headers
    assert raw.json() == answer.json()
    assert len(gzip.compress(raw.content)) < len(raw.content) / 4


# ---- the frames' extensions -----------------------------------------------------------------


def test_state_frames_carry_the_picture_and_each_placement_its_ends() -> None:
    table = Table(2, ["human", "human"], 17)
    table.deal()
    rng = random.Random(5)
    while table.match.rounds[-1].end is None and not table.match.is_over:
        legal = table.match.legal_actions()
        update = table.apply(legal[rng.randrange(len(legal))])
        frame = state_frame(table, 0, last_entries(table, [update], 0))
        if table.match.phase is Phase.DEAL:
            break
        assert frame["picture"] == picture_json(table.match.layout)
        (entry,) = [e for e in frame["last"] if e["type"] == "action"]
        if entry["action"]["type"] == "play":
            layout = table.match.layout
            assert entry["ends"] == [
                {"tile": [t.low, t.high], "value": v} for t, v in layout.contributions()
            ]
            assert entry["end_sum"] == sum(e["value"] for e in entry["ends"])
            credit = entry["end_sum"] if entry["end_sum"] % 5 == 0 else 0  # R15
            assert entry["credit"] == credit
            drawn = {tuple(t["tile"]): t["name"] for t in frame["picture"]["tiles"]}
            at = entry["action"]["at"]
            joined = [entry["action"]["tile"], *([] if at is None else [at[0]])]
            assert entry["names"] == [drawn[tuple(t)] for t in joined]
        else:
            assert "ends" not in entry


def _blocked_round() -> tuple[Match, int]:
    for seed in range(400):
        match = played_match(4, seed, ["random"] * 4)
        for r, log in enumerate(match.rounds):
            if log.end is not None and log.end.kind == "block":
                return match, r
    raise AssertionError("no blocked round in 400 matches")


def test_a_blocked_settlement_tells_how_each_credit_is_formed() -> None:
    match, r = _blocked_round()
    log = match.rounds[r]
    assert log.end is not None and log.end.pips is not None
    end = round_end_json(r, log.end, log, 4)
    pips = list(log.end.pips)
    assert end["pips"] == pips and end["opener"] == log.opener
    # R20-R22 worked out here: lightest first, ties clockwise from the opener; a hand scores
    # its differences to heavier opponents' hands (partners sit opposite), rounded to 5
    order = sorted(range(4), key=lambda s: (pips[s], (s - log.opener) % 4))
    assert [c["seat"] for c in end["credits"]] == order
    for line in end["credits"]:
        seat = line["seat"]
        heavier = [o for o in range(4) if o % 2 != seat % 2 and pips[o] > pips[seat]]
        assert line["heavier"] == [{"seat": o, "pips": pips[o]} for o in heavier]
        difference = sum(pips[o] - pips[seat] for o in heavier)
        assert line["difference"] == difference
        assert line["raw"] == (difference + 2) // 5 * 5
    events = [e for e in end["events"]]
    assert all(e["kind"] == "block" for e in events)
    assert [e["seat"] for e in events] == [c["seat"] for c in end["credits"] if c["raw"] > 0][
        : len(events)
    ]


async def test_the_first_state_of_a_round_keeps_the_last_settlement(tmp_path: Path) -> None:
    with server_in_thread(database_url("sqlite", tmp_path), tmp_path) as server:
        game = server.create(["human", "human"])
        # The seed is the server's secret: play until the first round has ended, however long.
        clients = await play_game(
            server, game, until=lambda f: "round_end" in f and f["status"] == "playing"
        )
        client = clients[0]
        settled = [f for f in client.states if "round_end" in f and f["status"] == "playing"]
        assert settled, "the match ended without a state after a round's end"
        frame = settled[0]
        end = frame["round_end"]
        assert end["round"] == frame["round"] - 1 and "opener" in end
        kinds = {e["kind"] for e in end["events"]}
        assert kinds <= {"domino", "block"} and (end["kind"] != "domino" or kinds == {"domino"})
        for c in clients.values():
            await c.close()
    assert json.dumps(frame)  # JSON all the way down
