# The bot, as `make run` runs it: `python -m bot`, configured from the environment.
#   docker build -t tora-bot .
#   docker run -e DISCORD_TOKEN=... -v tora-data:/data tora-bot          (the bot)
#   with the web board for players, behind a reverse proxy on this host (docs/DEPLOY.md):
#   docker run -e DISCORD_TOKEN=... -e TORA_WEB_URL=https://tora.example.org \
#     -e TORA_WEB_TRUSTED_PROXIES=172.17.0.1 -p 127.0.0.1:8080:8080 -v tora-data:/data tora-bot
#   docker run -e DISCORD_TOKEN=... tora-bot sync --guild 123456789      (register commands)
#   several processes on PostgreSQL: docs/DEPLOY.md (docs/deploy/compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TORA_DB=/data/tora.sqlite3 \
    TORA_WEB_HOST=0.0.0.0

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY ai ./ai
COPY storage ./storage
COPY render ./render
COPY bot ./bot
RUN pip install . && rm -rf /app/*

RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin tora \
    && mkdir /data && chown tora /data
USER tora
WORKDIR /data
VOLUME ["/data"]
# The web board (docs/WEB.md), on every address of the container: publish it on the host's
# loopback only (-p 127.0.0.1:8080:8080) for a reverse proxy there, and set TORA_WEB_URL to
# its public address (the links players are given; without it they name 0.0.0.0, and the bot
# warns at start) and TORA_WEB_TRUSTED_PROXIES to where the proxy's requests come from in the
# container (Docker's bridge gateway, 172.17.0.1 by default), or every player shares its limits
EXPOSE 8080

ENTRYPOINT ["python", "-m", "bot"]
