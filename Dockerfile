FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CARDROOM_HOST=0.0.0.0 \
    CARDROOM_PORT=8000 \
    CARDROOM_LOG_FORMAT=json

WORKDIR /srv/cardroom
RUN useradd --create-home --uid 10001 cardroom

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY frontend ./frontend
COPY docs ./docs
RUN pip install --no-cache-dir -e . && chown -R cardroom:cardroom /srv/cardroom

USER 10001
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=2)"]
CMD ["sh", "-c", "cardroom migrate && exec cardroom serve"]
