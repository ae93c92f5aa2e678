/* bcast.input_box, bcast.output_box and bcast.tiles: the library's tile
 * plans (bcast/tile.h) for Python, which bcast.dask builds its graphs
 * from. */
#include "pybcast.h"

/* The tile map of an operand: its shape, the output's (converted once
 * for every operand: a second reading of the user's object might differ),
 * and dims (None: implicit broadcasting, else BroadcastInDim's map). */
static int map_from(PyObject *shape, const bcast_shape *out, PyObject *dims,
                    const char *what, bcast_tile_map *map) {
  bcast_shape in;
  int64_t d[BCAST_MAX_RANK];
  size_t n = 0;
  if (pb_shape_from(shape, &in, NULL, what) < 0) return -1;
  if (dims && dims != Py_None &&
      pb_ints_from(dims, d, BCAST_MAX_RANK, &n, "dims") < 0)
    return -1;
  bcast_diag diag;
  bcast_status st = bcast_tile_map_init(
      map, &in, out, dims && dims != Py_None ? d : NULL, n, &diag);
  if (st != BCAST_OK) {
    pb_raise(st, &diag);
    return -1;
  }
  return 0;
}

/* A box from two sequences of ints of the given rank. */
static int box_from(PyObject *lo, PyObject *hi, int32_t rank, bcast_box *box) {
  size_t nlo = 0, nhi = 0;
  if (pb_ints_from(lo, box->lo, BCAST_MAX_RANK, &nlo, "lo") < 0 ||
      pb_ints_from(hi, box->hi, BCAST_MAX_RANK, &nhi, "hi") < 0)
    return -1;
  if (nlo != (size_t)rank || nhi != (size_t)rank) {
    PyErr_Format(PyExc_ValueError,
                 "lo and hi have %zu and %zu entries; the shape has rank %d",
                 nlo, nhi, (int)rank);
    return -1;
  }
  box->rank = rank;
  return 0;
}

static PyObject *ints_to(const int64_t *v, int32_t n) {
  PyObject *t = PyTuple_New(n);
  for (int32_t i = 0; t && i < n; i++) {
    PyObject *x = PyLong_FromLongLong(v[i]);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

static PyObject *box_to(const bcast_box *box) {
  PyObject *lo = ints_to(box->lo, box->rank),
           *hi = ints_to(box->hi, box->rank);
  PyObject *r = lo && hi ? PyTuple_Pack(2, lo, hi) : NULL;
  Py_XDECREF(lo);
  Py_XDECREF(hi);
  return r;
}

/* input_box and output_box: one box through a map, either way. */
static PyObject *map_box(PyObject *args, PyObject *kwargs, const char *fmt,
                         int to_input) {
  static char *kwlist[] = {"shape", "out_shape", "lo", "hi", "dims", NULL};
  PyObject *shape, *out_shape, *lo, *hi, *dims = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, &shape,
                                   &out_shape, &lo, &hi, &dims))
    return NULL;
  bcast_shape out;
  bcast_tile_map map;
  if (pb_shape_from(out_shape, &out, NULL, "out_shape") < 0 ||
      map_from(shape, &out, dims, "shape", &map) < 0)
    return NULL;
  bcast_box from, to;
  if (box_from(lo, hi, to_input ? map.out.rank : map.in.rank, &from) < 0)
    return NULL;
  bcast_diag diag;
  bcast_status st = to_input ? bcast_tile_input_box(&map, &from, &to, &diag)
                             : bcast_tile_output_box(&map, &from, &to, &diag);
  if (st != BCAST_OK) return pb_raise(st, &diag);
  return box_to(&to);
}

PyObject *pb_input_box(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  return map_box(args, kwargs, "OOOO|O:input_box", 1);
}

PyObject *pb_output_box(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  return map_box(args, kwargs, "OOOO|O:output_box", 0);
}

PyObject *pb_tiles(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"out_shape",    "shapes", "budget", "itemsizes",
                           "out_itemsize", "dims",   NULL};
  PyObject *out_shape, *shapes_obj, *budget_obj,
      *itemsizes_obj = Py_None, *out_itemsize_obj = NULL, *dims_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(
          args, kwargs, "OOO|$OOO:tiles", kwlist, &out_shape, &shapes_obj,
          &budget_obj, &itemsizes_obj, &out_itemsize_obj, &dims_obj))
    return NULL;
  int64_t budget, out_itemsize = 8;
  bcast_shape out;
  if (pb_size_from(budget_obj, &budget, "budget") < 0 ||
      (out_itemsize_obj &&
       pb_size_from(out_itemsize_obj, &out_itemsize, "out_itemsize") < 0) ||
      pb_shape_from(out_shape, &out, NULL, "out_shape") < 0)
    return NULL;
  if (out_itemsize == 0)
    return PyErr_Format(PyExc_ValueError, "out_itemsize must be > 0");
  PyObject *shapes = pb_sequence(shapes_obj, "shapes");
  PyObject *dims = NULL, *result = NULL;
  bcast_tile_map *maps = NULL;
  int64_t *itemsizes = NULL;
  size_t *sizes = NULL;
  if (!shapes) return NULL;
  const Py_ssize_t n = PyList_GET_SIZE(shapes);
  if (n == 0) {
    PyErr_SetString(PyExc_ValueError, "tiles: no operand shape");
    goto done;
  }
  maps = PyMem_Calloc((size_t)n, sizeof *maps);
  itemsizes = PyMem_Calloc((size_t)n, sizeof *itemsizes);
  sizes = PyMem_Calloc((size_t)n, sizeof *sizes);
  if (!maps || !itemsizes || !sizes) {
    PyErr_NoMemory();
    goto done;
  }
  size_t n_itemsizes = (size_t)n;
  if (itemsizes_obj != Py_None &&
      pb_ints_from(itemsizes_obj, itemsizes, (size_t)n, &n_itemsizes,
                   "itemsizes") < 0)
    goto done;
  if (dims_obj != Py_None && !(dims = pb_sequence(dims_obj, "dims")))
    goto done;
  if (n_itemsizes != (size_t)n || (dims && PyList_GET_SIZE(dims) != n)) {
    PyErr_Format(PyExc_ValueError,
                 "tiles: itemsizes and dims need one entry per shape (%zd)",
                 n);
    goto done;
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    char what[32];
    PyOS_snprintf(what, sizeof what, "shapes[%zd]", k);
    if (map_from(PyList_GET_ITEM(shapes, k), &out,
                 dims ? PyList_GET_ITEM(dims, k) : NULL, what, &maps[k]) < 0)
      goto done;
    sizes[k] = itemsizes_obj == Py_None ? 8 : (size_t)itemsizes[k];
    if (sizes[k] == 0) {
      PyErr_Format(PyExc_ValueError, "itemsizes[%zd] must be > 0", k);
      goto done;
    }
  }
  bcast_tiler tiler;
  bcast_diag diag;
  bcast_status st = bcast_tiler_init(&tiler, (size_t)n, maps, sizes,
                                     (size_t)out_itemsize, budget, &diag);
  if (st != BCAST_OK) {
    pb_raise(st, &diag);
    goto done;
  }
  if (tiler.count > PY_SSIZE_T_MAX) {
    PyErr_SetString(PyExc_OverflowError, "tiles: too many tiles for a list");
    goto done;
  }
  result = PyList_New((Py_ssize_t)tiler.count);
  bcast_box box;
  for (int64_t k = 0; result && bcast_tiler_tile(&tiler, k, &box); k++) {
    PyObject *b = box_to(&box);
    if (!b) {
      Py_CLEAR(result);
      break;
    }
    PyList_SET_ITEM(result, (Py_ssize_t)k, b);
  }
done:
  PyMem_Free(maps);
  PyMem_Free(itemsizes);
  PyMem_Free(sizes);
  Py_XDECREF(dims);
  Py_DECREF(shapes);
  return result;
}
