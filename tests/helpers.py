"""Small helpers shared by the games' rule tests."""

from __future__ import annotations

from tricktable.engine.trick import TrickState


def run(state: TrickState, actions: str) -> TrickState:
    """Apply action texts separated by commas (``"pass, bid 2, play TD"``)."""
    for text in actions.split(","):
        if text.strip():
            state.apply(state.game.parse_action(text))
    return state


def play_out(state: TrickState) -> TrickState:
    """Finish the hand with the lowest legal action each time."""
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    return state
