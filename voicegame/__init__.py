"""voicegame: an offline, voice-hosted party-game host.

Games: Wavelength, ROFL! and Wits & Wagers. Rules live in :mod:`voicegame.rules`
(pure), phases in :mod:`voicegame.host` (``transitions`` machines), speech behind
the ports of :mod:`voicegame.ports`.
"""

__version__ = "0.1.0"
