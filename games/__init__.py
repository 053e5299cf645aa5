"""Pure rules engines, one module per game, each exporting its `GameSpec` as SPEC (see
`games.registry`): no audio, no NLP, no printing, no wall clock. `games.base` holds what they
share: actions, events, typed refusals, the checks of a move, the match log."""
