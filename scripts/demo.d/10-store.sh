# The shipped sample store: what is in it, and is it sound.
set -euo pipefail
curator list
curator validate
