"""GPU tier fixtures."""

import pytest


@pytest.fixture
def padded_route(monkeypatch):
    """``check(module, run)``: a ragged call's route through its copies. With ``module``'s
    plans and routes cleared, ``run()`` (a fresh checked call) plans the copies' call, then
    keeps the copies' route and adopts it for the ragged call (marked ``pad``); two more
    calls follow it past a door that would fail."""
    def check(module, run):
        module.PLANS.clear()
        module.ROUTES.clear()
        door = module._check
        run()                                   # plans the copies' call
        run()                                   # the copies' route, kept and adopted
        assert [r.pad for r in module.ROUTES._plans.values()] == [False, True]
        monkeypatch.setattr(module, "_check", lambda *args: 1 / 0)
        run()
        run()
        monkeypatch.setattr(module, "_check", door)
    return check
