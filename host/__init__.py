"""The storyhost application: CLI, session loop, persistence, what the players see and hear."""
