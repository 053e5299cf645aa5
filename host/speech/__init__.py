"""Speech recognizers behind one streaming protocol, and hearing (audio to hypotheses). Knows nothing of sessions or voice control."""
