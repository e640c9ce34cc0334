"""The web front end: FastAPI server, WebSocket protocol, rooms and the browser client."""
