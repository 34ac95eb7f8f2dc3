"""The Textual app, driven by Textual's headless pilot: keys, filter, search, comparison."""

from __future__ import annotations

import asyncio

from curator.view.session import open_session
from tests.conftest import REPO

SCREENSHOTS = REPO / "build" / "screenshots"


def drive(session, steps, **options):
    """Run the app headless, call `steps(app, pilot)` (a coroutine), return what it returned."""
    app = session.app(**options)

    async def run():
        async with app.run_test(size=(140, 36)) as pilot:
            await pilot.pause()
            return await steps(app, pilot)

    return asyncio.run(run())


def rows(app):
    from textual.widgets import DataTable

    table = app.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def header(app):
    return str(app.query_one("#counts").render())


def test_keys_move_open_a_test_and_go_back(runs):
    session = open_session(runs[1])

    async def steps(app, pilot):
        from textual.widgets import DataTable

        from curator.view.app import DetailScreen

        table = app.query_one(DataTable)
        assert header(app).startswith("8 tests | 3 passed | 3 failed | 1 flaky | 1 errors")
        assert [r[0] for r in rows(app)] == [
            "lease-a",
            "lease-b",
            "lease-c",
            "lease-d",
            "lease-e",
            "lease-g",
            "thread-h",
            "thread-i",
        ]
        await pilot.press("j", "j", "down")
        assert table.cursor_row == 3
        await pilot.press("k", "up")
        assert table.cursor_row == 1
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        shown = dict(app.screen.found)
        assert shown["Output"] == "$1,900.00" and shown["Rubric"] == "monthly_rent = $1,250.00"
        assert (
            "Monthly Rent: $1,250.00" in shown["Evidence"] and "lease-b-golden" in shown["Lineage"]
        )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        app.save_screenshot("view-detail.svg", str(SCREENSHOTS))
        await pilot.press("escape")
        assert not isinstance(app.screen, DetailScreen) and table.cursor_row == 1
        await pilot.press("q")
        return app.is_running

    assert drive(session, steps) is False


def test_f_shows_failures_only_and_slash_searches(runs):
    session = open_session(runs[1])

    async def steps(app, pilot):
        await pilot.press("f")
        assert [r[0] for r in rows(app)] == [
            "lease-b",
            "lease-d",
            "lease-g",
            "thread-h",
            "thread-i",
        ]
        assert "failures only" in header(app)
        await pilot.press("slash", *"roll back", "enter")
        assert [r[0] for r in rows(app)] == ["thread-h"] and [r[2] for r in rows(app)] == ["FLAKY"]
        await pilot.press("f")  # typed keys went to the search box; f works again once it is closed
        assert [r[0] for r in rows(app)] == ["thread-h"]
        await pilot.press("escape")
        assert len(rows(app)) == 8 and "search" not in header(app)
        await pilot.press("slash", *"qjk")  # letters that are keys elsewhere type into the search
        assert app.search_text == "qjk" and app.is_running and rows(app) == []

    drive(session, steps)


def test_c_toggles_the_comparison_with_its_counts(runs):
    old, new = runs
    session = open_session(new, old)

    async def steps(app, pilot):
        assert (
            "3 regressed | 1 fixed | 2 new | 2 dropped | 1 still failing | 1 still passing (shown)"
            in header(app)
        )
        table = rows(app)
        assert [r[0] for r in table] == ["regressed"] * 3 + ["fixed"] + ["new"] * 2 + [
            "dropped"
        ] * 2 + ["still failing"]
        regressed_b = table[0]
        assert regressed_b[1] == "lease-b" and regressed_b[3:5] == ["PASS", "FAIL"]
        dropped = [r for r in table if r[0] == "dropped"]
        assert all(r[4] == "-" for r in dropped)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        app.save_screenshot("view-compare.svg", str(SCREENSHOTS))
        await pilot.press("enter")
        assert "pass, score 1.00" in dict(app.screen.found)["Previous run"]
        await pilot.press("escape", "c")
        assert [r[0] for r in rows(app)][:2] == [
            "lease-a",
            "lease-b",
        ] and "(hidden: c shows it)" in header(app)
        await pilot.press("c", "f")
        assert {r[0] for r in rows(app)} == {"regressed", "new", "dropped", "still failing"}

    drive(session, steps)


def test_failures_only_option_starts_filtered_and_c_without_a_comparison_only_warns(runs):
    session = open_session(runs[1])

    async def steps(app, pilot):
        assert len(rows(app)) == 5
        await pilot.press("c")
        assert len(rows(app)) == 5 and app.is_running

    drive(session, steps, failures_only=True)
