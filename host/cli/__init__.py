"""The command line: `storyhost` and its sub-commands, each failure one plain line."""
