"""The REST surface: serializers, thin views, routers, filters, errors and OpenAPI."""
