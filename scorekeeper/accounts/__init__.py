"""Accounts: signing in and out, users, API tokens, and who may do what."""
