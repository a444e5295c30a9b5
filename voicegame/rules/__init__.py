"""Pure game rules: state dataclasses, legality and scoring, no audio, time, text or I/O."""
