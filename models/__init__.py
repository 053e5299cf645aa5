"""Where speech and language models live."""
