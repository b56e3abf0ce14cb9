"""Alembic's entry point: run the migrations against the URL the server passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from exact61.server.store import metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url, "the server passes the database URL"

if context.is_offline_mode():  # `alembic upgrade --sql`: write the SQL out
    context.configure(url=url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif config.attributes.get("connection") is not None:  # the server's own connection
    connection = config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
else:
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
