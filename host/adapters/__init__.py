"""What the host does for one game beyond its rules: the Stories! referee's ears, a Storytelling card read aloud."""
