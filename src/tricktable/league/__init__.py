"""Leagues (issue 28 item 6): duplicate nights, a season's standings, promotion and relegation."""
