"""Game hosts: one transitions state machine per game, over the shared Table."""
