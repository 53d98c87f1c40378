"""The computer opponent (issue 21)."""
