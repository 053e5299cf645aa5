"""Language: term rules, sameness and ticking over text."""
