"""Pass registry, pipeline strings and the pipeline driver."""
