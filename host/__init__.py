"""The storyhost application, in layers (each sub-package imports only those below it, as
`tests/test_layers.py` checks): cli, session, adapters (one per game), voice, speech, storage,
audio."""
