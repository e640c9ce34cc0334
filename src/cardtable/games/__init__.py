"""The rules layer: one engine for the Cabo family, one for Qute."""
