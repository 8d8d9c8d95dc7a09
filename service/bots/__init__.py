"""The server's bots: RunBatch's games (batches.py), the seats' bots (bot_seats.py) and the
round-robin that shares bot work between creators (fair_slots.py)."""
