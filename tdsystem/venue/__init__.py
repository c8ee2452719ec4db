"""The room: what spans the apps (the demo night and the command that runs the system)."""
