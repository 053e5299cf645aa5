"""Sound in and out: microphone and file sources, sound devices, the speaker. Knows nothing of games or sessions."""
