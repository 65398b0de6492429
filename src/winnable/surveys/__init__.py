"""The surveys: solve a range of deals, keep what was proved, publish the tables.

In layers, each module importing only those below it (``lint-imports`` checks it):

* :mod:`~winnable.surveys.report`: the published tables, how each survey is run, its
  text table and pictures (``docs/surveys/make_tables.py``);
* :mod:`~winnable.surveys.data`: a survey kept small, two bits a deal and its figures;
* :mod:`~winnable.surveys.survey`: a survey's run, chunk by chunk, its records and
  ``winnable survey``'s summary;
* :mod:`~winnable.surveys.runners`: who solves the chunks, this machine's cores or a
  Dask cluster.

The surveys stand on the rules and the solver; the web app and storage never import them.
"""
