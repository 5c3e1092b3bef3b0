"""Views of the pages, one module per area. Each parses input, calls a service or selector and
renders a template."""
