# Raises, while imported, an error whose words hold a lone surrogate (what a name that is not
# UTF-8 becomes in Python): the checker's channel carries it escaped, as JSON does, and every
# report and the journal must still be written.
raise RuntimeError("not UTF-8: \udcff")
