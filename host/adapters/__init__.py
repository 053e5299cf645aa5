"""What the host does for each game beyond its rules, one module per game behind the
`GameAdapter` protocol (`base`): its deck and options, the phrases of its moves, its host
commands, the moves its players' phones may send and its table screen; and its listeners for
the session (`listening`): the Stories! referee's ears (`narration`) and sand timer
(`story_clock`), a Storytelling card read aloud (`card_reading`)."""
