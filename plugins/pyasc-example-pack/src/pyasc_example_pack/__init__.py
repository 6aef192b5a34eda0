"""An example pyasc op pack (namespace ``example::``)."""

__version__ = "0.1.0"
