# syntax=docker/dockerfile:1
# Parlour's rooms server (`parlour serve`) as an image: docs/hosts.md#docker-compose.
#
#   docker build -t parlour .
#   docker run --init -p 127.0.0.1:8000:8000 -v parlour-data:/data parlour   # /data/parlour.db
#
# deploy/compose.yaml runs it with PostgreSQL and Caddy in front for HTTPS.

# --- build: Parlour's wheel and the wheels of what the server needs ---------------------------
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
# The extras `serve` (the server) and `postgres` (its PostgreSQL driver, for --db
# postgresql://...); not lab, rl or dev.
RUN pip wheel --no-cache-dir --wheel-dir /wheels '.[serve,postgres]'

# --- run: a slim Python with those wheels only, as a user without privileges ------------------
FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/home/parlour/.cache/numba
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels 'parlour[serve,postgres]' \
    && useradd --system --uid 10001 --user-group --create-home --home-dir /home/parlour parlour \
    && install -d -o parlour -g parlour -m 0700 /data
USER parlour
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# /healthz answers as long as the process does (/readyz also asks the database and the bots).
# It asks port 8000: change it here too when the command gives another --port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
ENTRYPOINT ["parlour"]
# SQLite in the volume by default; deploy/compose.yaml gives --db postgresql://... instead.
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--db", "/data/parlour.db"]
