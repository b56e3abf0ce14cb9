"""Tournaments between bots: seat-rotated schedules, parallel play, statistics and plots."""
