# tablebank's container image (docs/deploy.md, "A container"):
#   docker build -t tablebank .
#   docker run -d -p 127.0.0.1:8000:8000 -v tablebank:/var/lib/tablebank tablebank
# or with PostgreSQL: deploy/compose.yaml. Every option of `tablebank serve` may be set as an
# environment variable, TABLEBANK_<OPTION> (`docker run --rm tablebank serve --help`); the
# ones below are the image's defaults. Podman keeps the HEALTHCHECK only with `--format docker`.

# Debian's own slim image: its python3 is the one both stages use, so the virtualenv built in
# the first runs in the second. BASE lets a machine without a registry build from a local
# Debian made with debootstrap (docs/deploy.md, "Building without a registry").
ARG BASE=debian:bookworm-slim

FROM ${BASE} AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        python3 python3-venv \
    && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/tablebank
# The package alone (.dockerignore keeps out the tests, docs and local stores): not editable,
# its console and rule sets inside it as package data.
COPY pyproject.toml README.md LICENSE /src/
COPY api /src/api
COPY ledger /src/ledger
COPY schemas /src/schemas
COPY tablebank /src/tablebank
RUN /opt/tablebank/bin/pip install --no-cache-dir --disable-pip-version-check '/src[postgres]'

FROM ${BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 \
    && rm -rf /var/lib/apt/lists/*
# A user of its own, no login, owning the store's folder alone (mode 0700: serve refuses a
# SQLite file that group or others may read). A named volume mounted there starts as a copy
# of this folder, owner and mode included.
RUN groupadd --system --gid 10001 tablebank \
    && useradd --system --uid 10001 --gid 10001 --no-create-home \
        --home-dir /var/lib/tablebank --shell /usr/sbin/nologin tablebank \
    && install -d -o tablebank -g tablebank -m 0700 /var/lib/tablebank
COPY --from=build /opt/tablebank /opt/tablebank
ENV PATH=/opt/tablebank/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    TABLEBANK_HOST=0.0.0.0 \
    TABLEBANK_PORT=8000 \
    TABLEBANK_DB=/var/lib/tablebank/tablebank.sqlite \
    TABLEBANK_LOG_FORMAT=json
USER tablebank
WORKDIR /var/lib/tablebank
VOLUME /var/lib/tablebank
EXPOSE 8000
# Ready: the store answers a round trip (/readyz, 503 when it does not). The slim image has no
# curl; its Python asks. An answer other than 2xx, or none within 5 s, is a failure.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('TABLEBANK_PORT', '8000'), timeout=4)"]
# The options are the environment's (above, or `-e`/compose's `environment:`), so that one
# variable changes one without restating the command. `docker run ... tablebank backup FILE`
# runs another command of the image on the same store.
ENTRYPOINT ["tablebank"]
CMD ["serve"]
