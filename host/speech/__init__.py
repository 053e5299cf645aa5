"""Speech recognizers behind one streaming protocol, and hearing (audio to hypotheses). Each
adapter cleans its engine's own tokens (fillers, pronunciation variants), so what it hears is
plain words. Knows nothing of sessions or voice control."""
