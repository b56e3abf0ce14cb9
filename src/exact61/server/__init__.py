"""`exact61 serve`: the game server. Friends on different devices play each other and the bots
through the online protocol `exact61-online/1` (docs/formats/online-protocol.md).

Layers: `protocol` (the shapes of requests and frames) and `frames` (what each recipient is
told) are pure; `store` keeps games in a database; `rooms` plays them through `exact61.table`;
`app` is the ASGI application. Needs the `server` extra (pip install "exact61[server]").
"""
