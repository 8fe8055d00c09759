# bananaqr's container image: the static binary on an empty base, run as a user without
# privileges. It has no shell, no package manager and no CA certificates (see README.md,
# "Container image"). Build the binary first, then the image:
#
#   CGO_ENABLED=0 go build -trimpath -o bananaqr ./cmd/bananaqr
#   docker build -t bananaqr .            # podman build --format docker -t bananaqr .
#   docker run --rm -p 8080:8080 bananaqr
#
# A release sets the binary's version with the linker (package internal/buildinfo) and gives the
# image the same one as its label (scripts/container-test.sh does the same with VERSION=…):
#
#   CGO_ENABLED=0 go build -trimpath -ldflags "-X github.com/bananaqr/bananaqr/internal/buildinfo.version=v1.8.0" -o bananaqr ./cmd/bananaqr
#   docker build --build-arg VERSION="$(./bananaqr version | cut -d' ' -f2)" --build-arg REVISION="$(git rev-parse HEAD)" -t bananaqr .
#
# The binary must be static (CGO_ENABLED=0): the image has no C library to load. It is built
# outside the image so that the build needs no base image and no network (scripts/container-test.sh
# builds it this way with podman).
FROM scratch

# VERSION is the version the binary reports (bananaqr version); devel when not given.
ARG VERSION=devel
ARG REVISION=unknown

LABEL org.opencontainers.image.title="bananaqr" \
      org.opencontainers.image.description="QR code HTTP service: SVG, PNG and JSON codes, a web page, and an MCP server at /mcp" \
      org.opencontainers.image.source="https://github.com/bananaqr/bananaqr" \
      org.opencontainers.image.url="https://github.com/bananaqr/bananaqr" \
      org.opencontainers.image.documentation="https://github.com/bananaqr/bananaqr#readme" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

# root and nonroot (65532) by name, as in the distroless images. The modes are set, not taken
# from the checkout (whose umask may make them group-writable).
COPY --chmod=0644 container/etc/passwd container/etc/group /etc/
# /data, owned by the user: the expenses database (and SQLite's temporary files) live here, and
# a named volume mounted on it starts writable by the user.
COPY --chown=65532:65532 --chmod=0755 container/data/ /data/
COPY --chmod=0755 bananaqr /bananaqr

USER 65532:65532
WORKDIR /data

# The address is set here, not as a flag in CMD, so that one variable moves both serve and the
# health check: docker run -e BANANAQR_ADDR=:9000 -p 9000:9000 bananaqr (a flag would win
# over the variable for serve but not for healthcheck). Logs are written in UTC: the image has
# no time zone data.
ENV BANANAQR_ADDR=":8080" \
    BANANAQR_EXPENSES_DB="/data/bananaqr-expenses.db"
EXPOSE 8080
# No VOLUME: serve writes nothing, and a declared volume would leave an anonymous volume behind
# every container. The expenses server's users mount one: -v bananaqr-expenses:/data.

# Exec form: there is no shell. GETs /healthz at BANANAQR_ADDR; exit 0 healthy, 1 not.
# (Docker-format images only: podman build needs --format docker to keep it.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 CMD ["/bananaqr", "healthcheck"]

ENTRYPOINT ["/bananaqr"]
CMD ["serve"]
