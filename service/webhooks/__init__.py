"""Webhooks (docs/WEBHOOKS.md): the events a change causes (events.py), where they may be
sent (targets.py) and the sender that delivers them from the store's outbox (sender.py).
Their endpoints' RPCs are the accounts' part (accounts/webhooks.py)."""
