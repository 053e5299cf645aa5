"""The storyhost application, in layers (each sub-package imports only those below it, as
`tests/test_layers.py` checks): cli, companion (the phones' and the table's pages), session,
adapters (one per game), voice, speech, storage, audio."""
