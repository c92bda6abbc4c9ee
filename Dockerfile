# The bot, as `make run` runs it: `python -m bot`, configured from the environment.
#   docker build -t tora-bot .
#   docker run -e DISCORD_TOKEN=... -v tora-data:/data tora-bot          (the bot)
#   docker run -e DISCORD_TOKEN=... tora-bot sync --guild 123456789      (register commands)
#   several processes on PostgreSQL: docs/DEPLOY.md (docs/deploy/compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TORA_DB=/data/tora.sqlite3

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

ENTRYPOINT ["python", "-m", "bot"]
