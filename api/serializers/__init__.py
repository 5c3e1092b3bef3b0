"""Serializers of the REST API, one module per area."""
