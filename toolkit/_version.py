"""The package version, in one place (generated modules record it in their provenance header)."""

__version__ = "0.1.0"
