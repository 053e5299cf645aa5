"""Pure rules engines for the three games: no audio, no NLP, no printing, no wall clock."""
