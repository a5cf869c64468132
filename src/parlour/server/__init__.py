"""Online rooms: ``parlour serve``, an ASGI app (starlette on uvicorn) that lets people play
together from their own devices (ARCHITECTURE.md, "Front ends and services")."""
